// The README's table-plan snippet needs nothing beyond the products it imports.
