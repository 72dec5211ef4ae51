package policy

// setsVariables reports whether a script of the call may set a shell
// variable, itself or in a script it runs in turn, as the shell preparer
// read it (tool.Script.SetsVariables): a variable can change what an
// approved command runs (PATH, LD_PRELOAD, NODE_OPTIONS). A script with
// no fact may set anything.
func (s *Subject) setsVariables() bool {
	if s.varsDone {
		return s.vars
	}
	s.varsDone = true
	for _, script := range s.c.Shell {
		if f, ok := s.c.Script(script); !ok || f.SetsVariables {
			s.vars = true
			return true
		}
	}
	return false
}
