# Part of the case: the package's marker
