import { useFixture } from '../helpers/useFixture';

const released: string[] = [];
let value: { name: string };
let readEarly: unknown;

describe('useFixture', () => {
  value = useFixture(
    'thing',
    async () => ({ name: 'made' }),
    async (made) => {
      released.push(made.name);
    },
  );
  try {
    readEarly = value.name;
  } catch (error) {
    readEarly = error;
  }

  it('throws a named error when read before its beforeAll made the value', () => {
    expect(readEarly).toBeInstanceOf(Error);
    expect((readEarly as Error).message).toBe(
      'thing.name read before its beforeAll made it (at describe time, or making it failed)',
    );
  });

  it('stands for the value once made: reads, spreads and `in` reach the value', () => {
    expect(value.name).toBe('made');
    expect({ ...value }).toEqual({ name: 'made' });
    expect('name' in value).toBe(true);
  });
});

// The root block's afterAll runs after the describe block's, once the value was released.
afterAll(() => {
  expect(released).toEqual(['made']);
  expect(() => value.name).toThrow('thing.name read after its afterAll released it');
});
