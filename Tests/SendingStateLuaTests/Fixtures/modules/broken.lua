-- A module with a syntax error on line 2.
return function(
