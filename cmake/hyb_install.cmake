# SPDX-License-Identifier: BSD-3-Clause
# Installation: filled in with the library targets.
