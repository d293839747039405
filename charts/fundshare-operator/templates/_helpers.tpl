{{/* The chart's name. */}}
{{- define "fundshare-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The full name: the prefix of every object's name. */}}
{{- define "fundshare-operator.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The labels of every object. */}}
{{- define "fundshare-operator.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "fundshare-operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: fundshare-operator
{{- end }}

{{/* The labels that select the manager's pods (never change them: a Deployment's selector is immutable). */}}
{{- define "fundshare-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "fundshare-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
control-plane: controller-manager
{{- end }}

{{/* The manager's ServiceAccount. */}}
{{- define "fundshare-operator.serviceAccountName" -}}
{{ include "fundshare-operator.fullname" . }}-controller-manager
{{- end }}

{{/* The webhook Service. */}}
{{- define "fundshare-operator.webhookServiceName" -}}
{{ include "fundshare-operator.fullname" . }}-webhook
{{- end }}

{{/* The Secret with the webhook server's tls.crt and tls.key (cert-manager's or the chart's). */}}
{{- define "fundshare-operator.webhookCertSecret" -}}
{{ include "fundshare-operator.fullname" . }}-webhook-server-cert
{{- end }}

{{/* The image: repository with the digest, or the tag (default: the chart's appVersion). */}}
{{- define "fundshare-operator.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{/* Whether the manager talks to a chain. */}}
{{- define "fundshare-operator.chainEnabled" -}}
{{- if or .Values.chain.rpcURL .Values.chain.rpcURLSecret.name }}true{{ end }}
{{- end }}
