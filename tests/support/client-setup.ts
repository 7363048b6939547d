import { configure } from '@testing-library/react';

/**
 * A screen found "by and by" waits up to 5 s, not Testing Library's 1 s: the client tests render
 * against a real server on a machine running the other projects at once, and a page that needed
 * 1.3 s under that load failed a test whose subject was not speed (speed is the benchmarks' and
 * the e2e's). A test that means a deadline still passes its own `timeout`.
 */
configure({ asyncUtilTimeout: 5_000 });
