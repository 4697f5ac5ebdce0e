# -*- coding: latin-1 -*-
NAME = 'café'


def name():
    return NAME
