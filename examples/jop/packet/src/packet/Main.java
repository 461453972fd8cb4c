/*
 * Main.java -- entry point of the packet protocol example.
 */
package packet;

/**
 * Two endpoints exchange messages over a pair of lossy loopback links: a
 * field device sends telemetry and executes commands, a controller sends
 * commands and collects telemetry. Each side sends the number of messages
 * given as first argument (default DEFAULT_MESSAGES). At the end one line
 * of results; it is the same on every run.
 */
public final class Main {
    static final int DEFAULT_MESSAGES = 200000;
    static final int RING_LOG2 = 11;

    private Main() {
    }

    public static void main(String[] args) {
        int messages = args.length > 0 ? parseCount(args[0], DEFAULT_MESSAGES) : DEFAULT_MESSAGES;

        // about 3% of the frames lost and 2% damaged in one direction, the reverse in the other
        NoisyChannel down = new NoisyChannel(RING_LOG2, 0x2468ACE, 31, 20);
        NoisyChannel up = new NoisyChannel(RING_LOG2, 0x13579BD, 20, 31);
        TelemetryApp device = new TelemetryApp(0xD1CE, messages);
        CommandApp controller = new CommandApp(0xC0DE, messages);
        Endpoint a = new Endpoint(device, up, down);
        Endpoint b = new Endpoint(controller, down, up);

        int limit = 64 * messages + 1000;
        int ticks = 0;
        while (!(a.done() && b.done()) && ticks < limit) {
            a.tick();
            b.tick();
            ticks++;
        }

        StringBuilder sb = new StringBuilder("packet:");
        sb.append(" messages=").append(controller.received()).append('/').append(device.received());
        sb.append(" ticks=").append(ticks);
        sb.append(" frames=").append(up.frames()).append('/').append(down.frames());
        sb.append(" bytes=").append(up.bytes() + down.bytes());
        sb.append(" lost=").append(up.dropped() + down.dropped());
        sb.append(" damaged=").append(up.damaged() + down.damaged());
        sb.append(" timeouts=").append(a.timeouts() + b.timeouts());
        sb.append(" retransmits=").append(a.retransmits() + b.retransmits());
        sb.append(" acks=").append(a.acksSent() + b.acksSent());
        sb.append(" crc_errors=").append(a.crcErrors() + b.crcErrors());
        sb.append(" bad_frames=").append(a.badFrames() + b.badFrames());
        sb.append(" duplicates=").append(a.duplicates() + b.duplicates());
        sb.append(" app_errors=").append(device.errors() + controller.errors());
        sb.append(" state=").append(Integer.toHexString(device.state()))
          .append('/').append(Integer.toHexString(controller.state()));
        sb.append(" digest=").append(Integer.toHexString(device.digest()))
          .append('/').append(Integer.toHexString(controller.digest()));
        System.out.println(sb.toString());
    }

    /** A decimal count > 0, or dflt when s is not one. */
    static int parseCount(String s, int dflt) {
        int n = 0;
        if (s.length() == 0 || s.length() > 9) return dflt;
        for (int k = 0; k < s.length(); k++) {
            int d = s.charAt(k) - '0';
            if (d < 0 || d > 9) return dflt;
            n = n * 10 + d;
        }
        return n > 0 ? n : dflt;
    }
}
