package wordfreq;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Counts words with the streams API (lambdas, collectors). */
final class StreamCounter implements Counter {
    private final List<String> words = new ArrayList<>();

    @Override
    public void add(String word) {
        words.add(word);
    }

    @Override
    public Map<String, Integer> counts() {
        return words.stream()
                .collect(Collectors.groupingBy(Function.identity(),
                        Collectors.summingInt(w -> 1)));
    }

    @Override
    public void reset() {
        words.clear();
    }
}
