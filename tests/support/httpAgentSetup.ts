/**
 * The tests' own HTTP requests (node:http request without an agent of their own) open a
 * connection each. With Node's default kept-alive agent, a socket left idle while a test prepares
 * its next step (a beforeAll filling a store with 50,000 rows) can be closed by the test's server
 * (its 5 s keepAliveTimeout) just as the next request is written on it: ECONNRESET, a failure of
 * the test's client, not of the code under test. A test about connections passes its own agent.
 */
import http from 'node:http';

http.globalAgent = new http.Agent({ keepAlive: false });
