package consolidate

// SecretScanner is replaced by consolidate/secrets.go.
type SecretScanner struct{}

// DefaultSecretScanner is replaced by consolidate/secrets.go.
func DefaultSecretScanner() *SecretScanner { return &SecretScanner{} }

// checkDuplicates is replaced by consolidate/similar.go.
func checkDuplicates(s *dirState) {}
