-- The h2 workload: DDL, inserts from a generated series, joins,
-- aggregates, an index, a view, an update and a transaction.
CREATE TABLE dept(id INT PRIMARY KEY, name VARCHAR(20));
CREATE TABLE emp(id INT PRIMARY KEY, dept INT, name VARCHAR(30), salary DECIMAL(10,2));
INSERT INTO dept VALUES (1, 'tools'), (2, 'runtime'), (3, 'compiler');
INSERT INTO emp SELECT x, MOD(x, 3) + 1, 'emp' || x, 1000 + MOD(x * 37, 500) FROM SYSTEM_RANGE(1, 300);
CREATE INDEX emp_dept ON emp(dept);
CREATE VIEW payroll AS SELECT d.name dept, COUNT(*) n, SUM(e.salary) total
  FROM emp e JOIN dept d ON e.dept = d.id GROUP BY d.name;
SELECT * FROM payroll ORDER BY dept;
UPDATE emp SET salary = salary * 1.1 WHERE dept = 2;
SELECT dept, MAX(salary), MIN(name) FROM emp GROUP BY dept ORDER BY dept;
SELECT name FROM emp WHERE salary > 1490 AND id < 130 ORDER BY salary DESC, name;
SELECT COUNT(*) FROM emp e1 JOIN emp e2 ON e1.dept = e2.dept AND e1.id < e2.id WHERE e1.id < 40;
