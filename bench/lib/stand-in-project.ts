import request from 'supertest';
import type { TestProject, TestService } from '@platform/testkit';

/** The OpenAI key the stand-in expects (`Authorization: Bearer sk-bench`). */
export const STAND_IN_KEY = 'sk-bench';

/** A new project of the LLM service whose OpenAI credential is the stand-in's key. */
export async function projectOnStandIn(svc: TestService): Promise<TestProject> {
  const project = await svc.createProject();
  await request(svc.app)
    .post('/v1/providers')
    .set(project.headers)
    .send({ providerType: 'openai', apiKey: STAND_IN_KEY })
    .expect(200);
  return project;
}
