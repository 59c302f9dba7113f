"""Small LibCST helpers shared by the engine and the rules: layout-preserving removal, names."""
