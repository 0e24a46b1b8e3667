"""Privacy amplification by subsampling (Balle, Barthe & Gaboardi 2018): the exact
laws of Poisson subsampling and of sampling without replacement
(:mod:`verifier.mechanism.subsample`) checked against the amplification bounds."""
