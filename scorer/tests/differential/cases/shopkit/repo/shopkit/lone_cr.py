import os

alpha = 1  # the comment ends herebeta = 2
gamma = 3  # sep still a comment


def delta():
    return alpha + beta
