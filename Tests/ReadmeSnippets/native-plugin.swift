// The README's native-plugin snippet needs nothing beyond the products it imports.
