package consolidate

// checkIndex is replaced by the index checks (consolidate/index.go).
func checkIndex(s *dirState) {}
