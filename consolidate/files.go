package consolidate

func checkProblems(s *dirState) {}
func checkDir(s *dirState)      {}
func checkFiles(s *dirState)    {}
func checkNames(s *dirState)    {}
