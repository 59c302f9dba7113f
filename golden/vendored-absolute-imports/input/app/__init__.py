# A package of the case.
