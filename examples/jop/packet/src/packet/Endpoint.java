/*
 * Endpoint.java -- one station of the link: go-back-N sender and
 * in-order receiver with cumulative, piggybacked acknowledgements.
 */
package packet;

/**
 * Sender states: READY (window open: take a new message when the
 * application has one), FULL (WINDOW frames unacknowledged: wait), RESEND
 * (after a timeout: send the window again from its oldest frame, one frame
 * per tick). Sequence numbers are 8 bits and compared modulo 256.
 *
 * The receiver accepts only the next expected DATA frame and answers every
 * DATA frame with an acknowledgement, carried by the next outgoing DATA
 * frame or sent alone as an ACK frame.
 */
final class Endpoint {
    static final int READY = 0;
    static final int FULL = 1;
    static final int RESEND = 2;

    static final int WINDOW = 4;
    static final int TIMEOUT = 10;

    private static final byte[] NO_PAYLOAD = new byte[0];

    private final Application app;
    private final Channel out;
    private final Channel in;
    private final Deframer deframer = new Deframer();
    private final byte[][] slots = new byte[WINDOW][Frame.MAX_PAYLOAD];
    private final int[] slotLength = new int[WINDOW];
    private final byte[] frame = new byte[Frame.MAX_FRAME];
    private final byte[] wire = new byte[Frame.MAX_WIRE];

    private int state = READY;
    private int base;        // oldest unacknowledged sequence number
    private int next;        // sequence number of the next new frame
    private int resend;      // next frame to send again in RESEND
    private int timer;       // ticks without progress while frames are out
    private int expected;    // next sequence number to accept
    private boolean ackDue;

    private int retransmits;
    private int timeouts;
    private int acksSent;
    private int badFrames;
    private int crcErrors;
    private int duplicates;

    Endpoint(Application app, Channel out, Channel in) {
        this.app = app;
        this.out = out;
        this.in = in;
    }

    /** One time step: everything received so far, then at most one frame out. */
    void tick() {
        receive();
        transmit();
    }

    /** All messages produced and acknowledged. */
    boolean done() {
        return app.finished() && base == next;
    }

    private static int inc(int seq) {
        return (seq + 1) & 0xFF;
    }

    /** Distance from a to b going forward, modulo 256. */
    private static int dist(int a, int b) {
        return (b - a) & 0xFF;
    }

    private void receive() {
        for (int b = in.read(); b >= 0; b = in.read()) {
            int n = deframer.feed(b);
            if (n > 0) accept(deframer.buffer(), n);
        }
    }

    private void accept(byte[] f, int n) {
        int status = Frame.check(f, n);
        if (status != Frame.OK) {
            if (status == Frame.BAD_CRC) crcErrors++;
            else badFrames++;
            return;
        }
        acknowledged(Frame.ack(f));
        if (Frame.type(f) == Frame.DATA) {
            if (Frame.seq(f) == expected) {
                app.deliver(f, Frame.HEADER, Frame.length(f));
                expected = inc(expected);
            } else {
                duplicates++;
            }
            ackDue = true;
        }
    }

    /** The peer has everything before sequence number a. */
    private void acknowledged(int a) {
        int newly = dist(base, a);
        if (newly == 0 || newly > dist(base, next)) return;
        if (state == RESEND && dist(base, resend) < newly) resend = a;
        base = a;
        timer = 0;
        if (state == FULL) state = READY;
    }

    private void transmit() {
        boolean dataSent = false;
        if (base != next && ++timer > TIMEOUT) {
            timeouts++;
            timer = 0;
            resend = base;
            state = RESEND;
        }
        switch (state) {
        case RESEND:
            if (resend != next) {
                if (sendData(resend)) {
                    retransmits++;
                    resend = inc(resend);
                    dataSent = true;
                }
                break;
            }
            state = READY;
            // the whole window is out again: go on with new messages
        case READY:
            if (dist(base, next) == WINDOW) {
                state = FULL;
                break;
            }
            int slot = next & (WINDOW - 1);
            int len = app.produce(slots[slot]);
            if (len > 0) {
                slotLength[slot] = len;
                int seq = next;
                next = inc(next);
                // a frame that finds no room is resent after the timeout
                dataSent = sendData(seq);
            }
            break;
        case FULL:
        default:
            break;
        }
        if (ackDue && !dataSent) sendAck();
    }

    private boolean sendData(int seq) {
        int slot = seq & (WINDOW - 1);
        int n = Frame.encode(frame, Frame.DATA, seq, expected, slots[slot], 0, slotLength[slot]);
        if (!out.send(wire, Framer.stuff(frame, n, wire))) return false;
        ackDue = false;
        return true;
    }

    private void sendAck() {
        int n = Frame.encode(frame, Frame.ACK, 0, expected, NO_PAYLOAD, 0, 0);
        if (out.send(wire, Framer.stuff(frame, n, wire))) {
            ackDue = false;
            acksSent++;
        }
    }

    int retransmits() {
        return retransmits;
    }

    int timeouts() {
        return timeouts;
    }

    int acksSent() {
        return acksSent;
    }

    int crcErrors() {
        return crcErrors;
    }

    int badFrames() {
        return badFrames + deframer.overruns() + deframer.aborts();
    }

    int duplicates() {
        return duplicates;
    }
}
