// The rhino workload: closures, objects, arrays sorted with a comparator,
// strings and regular expressions, exceptions.
function Account(name, balance) { this.name = name; this.balance = balance; }
Account.prototype.deposit = function (n) { this.balance += n; return this; };
Account.prototype.toString = function () { return this.name + '=' + this.balance; };

var accounts = [];
for (var i = 0; i < 60; i++)
  accounts.push(new Account('acct' + (i * 7919 % 61), (i * 104729) % 1000));
accounts.forEach(function (a, i) { a.deposit(i % 7); });
accounts.sort(function (a, b) { return a.balance - b.balance || (a.name < b.name ? -1 : 1); });
print(accounts.slice(0, 3).join(', '));

function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
print('fib(16) = ' + fib(16));

var words = 'the quick brown fox jumps over the lazy dog the end'.split(' ');
var counts = {};
words.forEach(function (w) { counts[w] = (counts[w] || 0) + 1; });
var keys = [];
for (var k in counts) keys.push(k);
keys.sort();
print(keys.map(function (k) { return k + ':' + counts[k]; }).join(' '));
print('fox jumps 42 times'.replace(/(\d+)/, function (m) { return m * 2; }));

try { null.x; } catch (e) { print('caught ' + e.name); }
var sum = 0;
for (var j = 0; j < 2000; j++) sum += (j % 3 === 0) ? j : -1;
print('sum = ' + sum);
