#!/usr/bin/python3
"""Independent reference for tests/unit/test_niagara_field.cpp: niagara's draw placement (zeux/niagara
src/niagara.cpp at 95f289b, as the shared bench folder's README.md documents it) written from that description,
not from Sieve's code. PCG32 (O'Neill's pcg32_random_r, XSH RR) in Python integers; the float steps in
numpy float32, as niagara's C++ does them (float(rand01()) then float arithmetic).
Prints the first raw outputs and the first draws: the constants the unit test compares with."""
import numpy as np

F = np.float32
MASK64 = (1 << 64) - 1


class Pcg32:
    def __init__(self):
        self.state = 0x42
        self.inc = 0xda3e39cb94b95bdb

    def rand32(self):
        old = self.state
        self.state = (old * 6364136223846793005 + (self.inc | 1)) & MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xffffffff
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xffffffff

    def rand01(self):
        return self.rand32() / float(1 << 32)  # a double, exact


def draw(rng, mesh_count):
    mesh = rng.rand32() % mesh_count
    pos = [F(rng.rand01()) * F(300) * F(2) - F(300) for _ in range(3)]
    scale = (F(rng.rand01()) + F(1)) * F(2)
    a = [F(rng.rand01()) * F(2) - F(1) for _ in range(3)]
    inv = F(1) / np.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
    axis = [c * inv for c in a]
    angle = (F(rng.rand01()) * F(90)) * F(0.01745329251994329576923690768489)
    half = angle * F(0.5)
    s, c = np.sin(half), np.cos(half)
    return mesh, pos, scale, axis, angle, (c, axis[0] * s, axis[1] * s, axis[2] * s)


def main():
    rng = Pcg32()
    print("raw:", ", ".join(f"0x{rng.rand32():08x}u" for _ in range(10)))
    rng = Pcg32()
    print("rand01 of the 2nd..4th outputs (after one rand32):")
    rng.rand32()
    print("  " + ", ".join(repr(rng.rand01()) for _ in range(3)))
    rng = Pcg32()
    for i in range(3):
        mesh, pos, scale, axis, angle, q = draw(rng, 1)
        fmt = lambda v: ", ".join(f"{float(x):.9g}f" for x in v)
        print(f"draw {i}: mesh {mesh} pos {{{fmt(pos)}}} scale {float(scale):.9g}f axis {{{fmt(axis)}}} "
              f"angle {float(angle):.9g}f q(wxyz) {{{fmt(q)}}}")
    # Draw 999 (the 1000th), after 999 draws of 9 outputs each: the stream stays in step.
    rng = Pcg32()
    for _ in range(999):
        draw(rng, 1)
    mesh, pos, scale, axis, angle, q = draw(rng, 1)
    print(f"draw 999: pos {{{', '.join(f'{float(x):.9g}f' for x in pos)}}} scale {float(scale):.9g}f")


if __name__ == "__main__":
    main()
