# -*- coding: latin-ÿm1 -*-
x = "été"
