import { describe, expect, it } from 'vitest';
import { compileTemplate } from './index';

const ctx = { line: '', timestampNs: 0n };
const run = (t: string): string => compileTemplate(t).execute({}, ctx);

describe('printf verbs (Go fmt)', () => {
  it.each([
    ['"%s|%5s|%-5s|%.2s" "abc" "abc" "abc" "abc"', 'abc|  abc|abc  |ab'],
    [
      '"%d|%5d|%-5d|%05d|%+d|%x|%X|%o|%O|%b|%#x" 42 42 42 42 42 255 255 8 8 5 255',
      '42|   42|42   |00042|+42|ff|FF|10|0o10|101|0xff',
    ],
    ['"%d" -42', '-42'],
    [
      '"%f|%.2f|%8.3f|%-8.1f|%+.1f" 3.14159 3.14159 3.14159 3.14159 3.14159',
      '3.141590|3.14|   3.142|3.1     |+3.1',
    ],
    ['"%.2f %.0f %.0f %.1f" 0.125 2.5 3.5 0.05', '0.12 2 4 0.1'],
    ['"%e|%E|%.2e" 123456.789 0.000123 1.0', '1.234568e+05|1.230000E-04|1.00e+00'],
    [
      '"%g|%g|%g|%g|%.3g|%g" 100000.0 1000000.0 0.0001 0.00001 3.14159 1e100',
      '100000|1e+06|0.0001|1e-05|3.14|1e+100',
    ],
    ['"%v|%v|%v|%v|%v" 1.5 2 "s" true 1e21', '1.5|2|s|true|1e+21'],
    ['"%q|%q|%q" "hi\\n\\"there\\"" "é\\x00" 97', '"hi\\n\\"there\\""|"é\\x00"|\'a\''],
    ['"%t|%t" true false', 'true|false'],
    ['"%x|%X|% x" "hi" "hi" "hi"', '6869|6869|68 69'],
    ['"%c|%U" 65 233', 'A|U+00E9'],
    ['"100%%"', '100%'],
    ['"%d %s"', '%!d(MISSING) %!s(MISSING)'],
    ['"%d" "x"', '%!d(string=x)'],
    ['"%s" 3', '%!s(int=3)'],
    ['"%d" 1.5', '%!d(float64=1.5)'],
    // A wrong verb's value is printed as %v with the directive's flags, as Go's fmt does.
    ['"%05d|%05d" "7" ""', '%!d(string=00007)|%!d(string=00000)'],
    ['"%-4d|%.1d|%5z" "ab" "abc" "ab"', '%!d(string=ab  )|%!d(string=a)|%!z(string=   ab)'],
    ['"%6.2f|%5t|%5s" 5 1 12', '%!f(int=    05)|%!t(int=    1)|%!s(int=   12)'],
    ['"%08.3d|%+d" 2.5 true', '%!d(float64=000002.5)|%!d(bool=true)'],
    ['"x" 1 "y"', 'x%!(EXTRA int=1, string=y)'],
    ['"%v" (fromJson `{"b":[1,2],"a":"x"}`)', 'map[a:x b:[1 2]]'],
    ['"%5.1f|%-6.2f|" (float64 "2.25") (float64 "-1.005")', '  2.2|-1.00 |'],
    ['"%[2]s %[1]s" "a" "b"', 'b a'],
    ['"%*d|%.*f" 4 7 1 2.55', '   7|2.5'],
    ['"%v %d" (add 1 2) (len "héllo")', '3 6'],
  ])('printf %s', (args, want) => {
    expect(run(`{{ printf ${args} }}`)).toBe(want);
  });
});

describe('float rounding matches Go (half to even on exact ties)', () => {
  it.each([
    ['"%.1f %.1f %.1f %.2f %.2f" 0.25 0.35 0.45 1.005 2.675', '0.2 0.3 0.5 1.00 2.67'],
    ['"%.0f %.0f %.0f %.0f" 0.5 1.5 -2.5 1e22', '0 2 -2 10000000000000000000000'],
    ['"%.1e %.3g %g %.2g" 1.25 2.0005 0.000012345 125.0', '1.2e+00 2 1.2345e-05 1.2e+02'],
  ])('printf %s', (args, want) => {
    expect(run(`{{ printf ${args} }}`)).toBe(want);
  });
});
