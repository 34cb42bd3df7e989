"""CrossHair and hypothesis-crosshair: symbolic searches over the spec contracts and impl ≡ spec."""
