package wordfreq;

import java.util.Comparator;
import java.util.Map;

/** Orders entries by descending count, then by word. */
final class ByCountThenWord implements Comparator<Map.Entry<String, Integer>> {
    @Override
    public int compare(Map.Entry<String, Integer> a, Map.Entry<String, Integer> b) {
        int c = Integer.compare(b.getValue(), a.getValue());
        return c != 0 ? c : a.getKey().compareTo(b.getKey());
    }
}
