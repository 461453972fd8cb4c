/*
 * Filter.java -- base class of the measurement filters.
 */
package control;

/** A filter stage: the subclass supplies one step and its history. */
abstract class Filter implements Stage {
    public final int process(int x) {
        return update(x);
    }

    public final void reset(int x) {
        clear(x);
    }

    /** One step of the filter: the new output for input x. */
    protected abstract int update(int x);

    /** Fills the filter's history with x. */
    protected abstract void clear(int x);
}
