#pragma once
#include "winnow/gl/objects.hpp"
