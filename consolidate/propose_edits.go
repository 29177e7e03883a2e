package consolidate

import "github.com/memtui/memtui/model"

func proposeRedactions(s *dreamState) []model.Proposal       { return nil }
func proposeFrontmatterFixes(s *dreamState) []model.Proposal { return nil }
func proposeAbsoluteDates(s *dreamState) []model.Proposal    { return nil }
func proposeYears(s *dreamState) []model.Proposal            { return nil }
func proposePrunes(s *dreamState) []model.Proposal           { return nil }
