def fib(n) { n < 2 ? n : fib(n-1) + fib(n-2) }
println "fib ${fib(20)}"
def words = "the quick brown fox jumps over the lazy dog the end".split()
println words.countBy { it }.sort { -it.value }.take(3)
class Point { int x, y; String toString() { "P($x,$y)" } }
def pts = (1..5).collect { new Point(x: it, y: it * it) }
println pts.findAll { it.y > 4 }.collect { it.toString() }
println pts*.x.sum()
def m = [a: 1, b: 2]; m.c = 3; println m
println Point.declaredFields.findAll { !it.synthetic }*.name.sort()
try { 1 / 0 } catch (ArithmeticException e) { println "caught ${e.message}" }
println String.format("%05d", 42)
