#!/bin/sh
echo "release"
