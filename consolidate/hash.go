package consolidate

import (
	"crypto/sha256"
	"encoding/hex"
)

// SHA256Hex is the hex sha256 of b, as proposals record base hashes.
func SHA256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
