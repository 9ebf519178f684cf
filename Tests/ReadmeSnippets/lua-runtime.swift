// The README's lua-runtime snippet needs nothing beyond the products it imports.
