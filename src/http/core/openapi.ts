import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

/** Every route registers here when it is defined; /openapi.json is generated from it. */
export const openApiRegistry = new OpenAPIRegistry();

openApiRegistry.registerComponent('securitySchemes', 'bearerAuth', {
  type: 'http',
  scheme: 'bearer',
  description: 'API key: sk_crm_(test|live)_… (public API), tp_sk_(test|live)_… (partner/processing)',
});
openApiRegistry.registerComponent('securitySchemes', 'iamSession', {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description:
    'Identity-provider user session (JWT) as Bearer, or the __session cookie; API keys are refused (docs/iam.md)',
});
openApiRegistry.registerComponent('securitySchemes', 'builderToken', {
  type: 'http',
  scheme: 'bearer',
  description: 'Builder session token bst_… from POST /builder/sessions: one deployment, the permissions it was given',
});
openApiRegistry.registerComponent('securitySchemes', 'cmsToken', {
  type: 'apiKey',
  in: 'header',
  name: 'x-cms-token',
});

export function generateOpenApiDocument(): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  return new OpenApiGeneratorV31(openApiRegistry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Payment and Commerce API',
      version: '1.0.0',
      description: 'Workflow-orchestrated payment engine. Errors use {message, code, issues?}.',
    },
    servers: [{ url: '/' }],
  });
}
