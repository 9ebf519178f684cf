-- A screen must return a table.
return 42
