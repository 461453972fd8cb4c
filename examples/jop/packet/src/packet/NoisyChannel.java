/*
 * NoisyChannel.java -- a loopback link that loses and damages frames.
 */
package packet;

/**
 * Drops a frame with probability loss/1024 and flips one bit of it with
 * probability flip/1024, chosen by a seeded generator: the same frames
 * suffer on every run.
 */
final class NoisyChannel extends RingChannel {
    private final Rng rng;
    private final int loss;
    private final int flip;
    private int dropped;
    private int damaged;

    NoisyChannel(int log2, int seed, int loss, int flip) {
        super(log2);
        rng = new Rng(seed);
        this.loss = loss;
        this.flip = flip;
    }

    boolean send(byte[] wire, int len) {
        int fate = rng.below(1024);
        if (fate < loss) {
            if (room() < len) return false;
            dropped++;
            return true;
        }
        if (fate < loss + flip) {
            // never the flags at either end: the damage stays inside the frame
            int at = 1 + rng.below(len - 2);
            int bit = 1 << rng.below(8);
            wire[at] ^= bit;
            boolean queued = super.send(wire, len);
            wire[at] ^= bit;
            if (queued) damaged++;
            return queued;
        }
        return super.send(wire, len);
    }

    int dropped() {
        return dropped;
    }

    int damaged() {
        return damaged;
    }
}
