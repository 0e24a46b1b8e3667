"""verifier: exact privacy verification for finite mechanisms."""
