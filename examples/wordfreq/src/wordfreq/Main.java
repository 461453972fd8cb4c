package wordfreq;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A small word-frequency program: tokenizes a generated text, counts words
 * in a hand-written hash table and with streams, sorts with a comparator,
 * and checks the two counts agree. Deterministic; prints the top words.
 */
public final class Main {
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        String text = TextSource.generate(20_000, 42);
        List<String> words = new Tokenizer(text).tokens();

        Counter table = new TableCounter();
        Counter streams = new StreamCounter();
        for (int r = 0; r < rounds; r++) {
            table.reset();
            for (String w : words) table.add(w);
        }
        streams.addAll(words);

        Map<String, Integer> a = table.counts(), b = streams.counts();
        if (!a.equals(b)) throw new IllegalStateException("counters disagree");

        List<Map.Entry<String, Integer>> top = new ArrayList<>(a.entrySet());
        top.sort(new ByCountThenWord());
        System.out.println(words.size() + " words, " + a.size() + " distinct");
        for (int i = 0; i < 5 && i < top.size(); i++) {
            Map.Entry<String, Integer> e = top.get(i);
            System.out.println(e.getKey() + " " + e.getValue());
        }
    }
}
