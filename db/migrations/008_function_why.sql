-- 008_function_why.sql: why each function has its status and object state
-- (issue 11).  Numbered 008 to leave 006/007 to migrations written beside
-- it on other branches.
--
-- functions.name_from_macro: the function-like macro whose argument names
-- the function (`void NPY_CPU_DISPATCH_CURFX(DOUBLE_add)(...)`), or NULL.
-- functions.why: compact JSON from analyze.h an_why_json(): the rule, text,
-- line and column of the finding that decides the status and the object
-- state ({"status", "object", "object_also"}), or NULL for analyses stored
-- before analyzer version 7.
ALTER TABLE functions ADD COLUMN name_from_macro TEXT;
ALTER TABLE functions ADD COLUMN why TEXT;
