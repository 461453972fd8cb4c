package wordfreq;

import java.util.Map;

/** Counts words. */
interface Counter {
    void add(String word);

    Map<String, Integer> counts();

    void reset();

    default void addAll(Iterable<String> words) {
        for (String w : words) add(w);
    }
}
