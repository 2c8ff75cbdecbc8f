package consolereplay

// Tolerances342 are the deliberate differences of our 3.x console from the
// Java admin 3.4.2, each with its reason; TestReplayOurs342 accepts them.
var Tolerances342 = []Tolerance{}
