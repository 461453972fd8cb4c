package wordfreq;

import java.util.HashMap;
import java.util.Map;

/** An open-addressing hash table of word counts, written out by hand. */
final class TableCounter implements Counter {
    private String[] keys = new String[64];
    private int[] values = new int[64];
    private int size;

    @Override
    public void add(String word) {
        if (2 * (size + 1) > keys.length) grow();
        int i = slot(keys, word);
        if (keys[i] == null) {
            keys[i] = word;
            size++;
        }
        values[i]++;
    }

    private static int slot(String[] ks, String word) {
        int mask = ks.length - 1;
        int i = word.hashCode() & mask;
        while (ks[i] != null && !ks[i].equals(word)) i = (i + 1) & mask;
        return i;
    }

    private void grow() {
        String[] oldKeys = keys;
        int[] oldValues = values;
        keys = new String[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] == null) continue;
            int i = slot(keys, oldKeys[j]);
            keys[i] = oldKeys[j];
            values[i] = oldValues[j];
        }
    }

    @Override
    public Map<String, Integer> counts() {
        Map<String, Integer> m = new HashMap<>();
        for (int j = 0; j < keys.length; j++) {
            if (keys[j] != null) m.put(keys[j], values[j]);
        }
        return m;
    }

    @Override
    public void reset() {
        keys = new String[64];
        values = new int[64];
        size = 0;
    }
}
