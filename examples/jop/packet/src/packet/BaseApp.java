/*
 * BaseApp.java -- message numbering, checking and digest shared by the
 * two applications.
 */
package packet;

/**
 * Every message starts with a 16-bit message number. The receiving side
 * checks that numbers arrive in order without gaps or repeats (what the
 * link protocol promises), lets the subclass check the contents, and folds
 * every byte into an FNV-1a digest.
 */
abstract class BaseApp implements Application {
    protected final Rng rng;
    private final int quota;
    private int produced;
    private int received;
    private int errors;
    private int digest = 0x811C9DC5;

    BaseApp(int seed, int quota) {
        rng = new Rng(seed);
        this.quota = quota;
    }

    public final int produce(byte[] buf) {
        if (produced == quota || !ready()) return 0;
        Frame.put16(buf, 0, produced);
        int n = compose(buf, 2);
        produced++;
        return n;
    }

    public final void deliver(byte[] buf, int off, int len) {
        if (len < 2 || Frame.get16(buf, off) != (received & 0xFFFF)) {
            errors++;
        } else if (!consume(buf, off + 2, len - 2)) {
            errors++;
        }
        received++;
        for (int k = off; k < off + len; k++) {
            digest = (digest ^ (buf[k] & 0xFF)) * 0x01000193;
        }
    }

    public final boolean finished() {
        return produced == quota;
    }

    /** True when the application has a message to send this tick. */
    protected abstract boolean ready();

    /** Writes the message body at buf[at ..]; returns the message's total length. */
    protected abstract int compose(byte[] buf, int at);

    /** Handles a message body; false when it is malformed. */
    protected abstract boolean consume(byte[] buf, int off, int len);

    int received() {
        return received;
    }

    int errors() {
        return errors;
    }

    int digest() {
        return digest;
    }
}
