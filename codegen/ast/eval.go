package ast

// CondsHold evaluates a conjunction of conditions with eval.
func CondsHold(cs []Cond, eval func(Expr) (int64, error)) (bool, error) {
	for _, c := range cs {
		x, err := eval(c.X)
		if err != nil {
			return false, err
		}
		switch c.Kind {
		case GE0:
			if x < 0 {
				return false, nil
			}
		case EQ0:
			if x != 0 {
				return false, nil
			}
		case DivBy:
			if x%c.D != 0 {
				return false, nil
			}
		}
	}
	return true, nil
}
