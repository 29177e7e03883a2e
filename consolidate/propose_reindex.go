package consolidate

import "github.com/memtui/memtui/model"

// proposeReindex rewrites MEMORY.md so that it loads whole.
func proposeReindex(s *dreamState) []model.Proposal { return nil }
