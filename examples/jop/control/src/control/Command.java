/*
 * Command.java -- commands of the master station, packed into one int.
 */
package control;

/** Opcode in the top 8 bits, a signed 24-bit argument below. */
final class Command {
    static final int NOP = 0;
    static final int START = 1;
    static final int STOP = 2;
    static final int SET_SPEED = 3;   // argument: target speed, rad/s
    static final int SET_GAIN = 4;    // argument: proportional gain, 1/1000 V s/rad
    static final int RESET = 5;       // clears a latched fault

    private Command() {
    }

    static int pack(int op, int arg) {
        return (op << 24) | (arg & 0xFFFFFF);
    }

    static int op(int cmd) {
        return cmd >>> 24;
    }

    static int arg(int cmd) {
        return (cmd << 8) >> 8;
    }
}
