package consolidate

import "github.com/memtui/memtui/model"

// proposeMerges folds near-duplicate memories into one file.
func proposeMerges(s *dreamState) []model.Proposal { return nil }
