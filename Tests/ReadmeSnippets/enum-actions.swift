// The README's enum-actions snippet needs nothing beyond the products it imports.
