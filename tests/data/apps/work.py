import re, json
def fib(n):
    return n if n < 2 else fib(n-1) + fib(n-2)
print("fib", fib(18))
words = "the quick brown fox jumps over the lazy dog the end".split()
counts = {}
for w in words: counts[w] = counts.get(w, 0) + 1
print(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3])
class P(object):
    def __init__(self, x): self.x = x
    def __repr__(self): return "P(%d)" % self.x
print([P(i) for i in range(3)])
from java.util import ArrayList
a = ArrayList(); a.add(3); a.add(1); a.add(2)
from java.util import Collections
Collections.sort(a); print(a)
print(re.sub(r"o+", "0", "foo boo"))
print(json.dumps({"a": [1, 2]}, sort_keys=True))
try:
    1 / 0
except ZeroDivisionError as e:
    print("caught", e)
