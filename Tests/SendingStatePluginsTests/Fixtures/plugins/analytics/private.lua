-- In the analytics folder but not in provides.modules: screens cannot require it.
return { secret = true }
