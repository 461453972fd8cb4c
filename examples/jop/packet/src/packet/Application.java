/*
 * Application.java -- the user of one endpoint of the link.
 */
package packet;

/** Produces the messages an endpoint sends and takes the ones it receives. */
interface Application {
    /**
     * Writes the next message into buf (at most Frame.MAX_PAYLOAD bytes);
     * returns its length, or 0 when there is nothing to send now.
     */
    int produce(byte[] buf);

    /** Takes a message received in order from the peer. */
    void deliver(byte[] buf, int off, int len);

    /** True once every message of this side has been produced. */
    boolean finished();
}
