import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    // A loaded 2-core CI machine: room for the tests that walk every city.
    testTimeout: 20_000,
  },
});
