/*
 * CommandQueue.java -- receive queue between the field bus and the drive.
 */
package control;

/** Fixed-size FIFO of packed commands; a full queue drops new ones. */
final class CommandQueue {
    private final int[] slots;
    private final int mask;
    private int head;
    private int tail;
    private int overflows;

    CommandQueue(int log2) {
        slots = new int[1 << log2];
        mask = slots.length - 1;
    }

    boolean offer(int cmd) {
        if (tail - head == slots.length) {
            overflows++;
            return false;
        }
        slots[tail & mask] = cmd;
        tail++;
        return true;
    }

    boolean isEmpty() {
        return head == tail;
    }

    /** The oldest command, or NOP when the queue is empty. */
    int poll() {
        if (head == tail) return Command.pack(Command.NOP, 0);
        int cmd = slots[head & mask];
        head++;
        return cmd;
    }

    int overflows() {
        return overflows;
    }
}
