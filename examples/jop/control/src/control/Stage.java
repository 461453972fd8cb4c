/*
 * Stage.java -- one stage of a measurement or output signal chain.
 */
package control;

/** Takes one Q16.16 sample per control tick and returns the processed one. */
interface Stage {
    int process(int x);

    /** Restarts the stage as if it had always seen x. */
    void reset(int x);
}
