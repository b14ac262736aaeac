module.exports = async () => {
  if (globalThis.__EMBEDDED_TEST_PG__) await globalThis.__EMBEDDED_TEST_PG__.stop();
};
